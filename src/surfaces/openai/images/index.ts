/** The OpenAI surface's image endpoints; the surface registers them beside chat completions. */
export { registerOpenAIImageRoutes } from './routes.js';
export { renderOpenAIImagesResponse } from './render-images-response.js';
