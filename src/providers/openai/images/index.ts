export { createOpenAIImages } from './openai-images.js';
