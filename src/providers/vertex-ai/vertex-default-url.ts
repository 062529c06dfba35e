/** Vertex AI's global endpoint; a channel that keeps it and names a region is sent to `https://<region>-aiplatform.googleapis.com`. */
export const VERTEX_DEFAULT_BASE_URL = 'https://aiplatform.googleapis.com';
