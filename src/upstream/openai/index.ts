export { OpenAiPredictor, type OpenAiPredictorOptions } from './openai-predictor';
export { SNAP_PROMPT_VERSION } from './snap-prompt';
export { COMMS_PROMPT_VERSION } from './comms-prompt';
