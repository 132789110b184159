/**
 * The created snap's examples in the spec show what the service returns: a confidence on
 * every prediction (it is always earned: src/upstream/openai/earned-confidence.ts and the
 * embedded predictor), and no profile only with `Low` (no evidence, no profile).
 */
import { readSpec } from '../../../../src/http/openapi/spec-document';
import { CONFIDENCE_LEVELS } from '../../../../src/domain/profiles';
import { SPEC_PATHS } from '../../../../src/support/project-root';

interface Prediction {
  profile: string | null;
  confidence: string | null;
}
interface Spec {
  components: { responses: Record<string, { content: Record<string, { examples: Record<string, { value: { data: { snapResponse: Prediction } } }> }> }> };
}

const examples = Object.entries((readSpec(SPEC_PATHS.public) as unknown as Spec).components.responses.SnapCreated?.content['application/json']?.examples ?? {});

describe("the created snap's examples", () => {
  test('there are some', () => {
    expect(examples.length).toBeGreaterThan(0);
  });

  test.each(examples)('when the example is %s, then its confidence is a level the service gives, and Low where there is no profile', (_name, example) => {
    const { profile, confidence } = example.value.data.snapResponse;
    expect(CONFIDENCE_LEVELS).toContain(confidence);
    if (profile === null) expect(confidence).toBe('Low');
  });
});
