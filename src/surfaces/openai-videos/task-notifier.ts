/**
 * The OpenAI videos webhook body (for a `callback_url` given at creation, a gateway extension),
 * for the task engine's dispatcher: the Video object as retrieve answers it, sent once the task
 * finished; nothing for the states before.
 */
import { terminalNotifier } from '../shared/terminal-notifier.js';
import { renderOpenAIVideo } from './render-video.js';

export const openaiVideosTaskNotifier = terminalNotifier((task) => renderOpenAIVideo(task));
