/** The default endpoint; a channel that keeps it is sent to its region's `bedrock-runtime.<region>.amazonaws.com`. */
export const BEDROCK_DEFAULT_BASE_URL = 'https://bedrock-runtime.us-east-1.amazonaws.com';
