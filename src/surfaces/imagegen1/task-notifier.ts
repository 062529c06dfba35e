/**
 * The imagegen1 webhook body, for the task engine's dispatcher: the lookup record, sent when
 * the task finishes (Replicate's `completed` event); nothing for the states before.
 */
import { terminalNotifier } from '../shared/terminal-notifier.js';
import { renderImagegen1Record } from './render-record.js';

export const imagegen1TaskNotifier = terminalNotifier((task, mediaUrl) => renderImagegen1Record(task, mediaUrl));
