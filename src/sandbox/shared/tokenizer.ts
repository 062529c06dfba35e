/** The sandbox counts with the gateway's real tokenizer; its entry points load it first. */
export { countTextsTokens, countTextTokens, encodeText, loadTokenizer, tokenPieces } from '../../core/tokenizer.js';
