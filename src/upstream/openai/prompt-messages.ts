/** The two messages a prompt builder produces: fixed instructions and the delimited data. */
export interface PromptMessages {
  system: string;
  user: string;
}
