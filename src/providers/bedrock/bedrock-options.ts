/** Bedrock's channel options, as descriptor data (plain, so config validation loads no adapter). */
import type { ChannelOptionSpec } from '../types.js';

/** AWS region names (`us-east-1`, `eu-west-1`, `us-gov-west-1`, `us-isob-east-1`). */
export const AWS_REGION = /^[a-z]{2}(-gov|-iso[a-z]*)?-[a-z]+-\d{1,2}$/;

export const BEDROCK_CHANNEL_OPTIONS: Readonly<Record<string, ChannelOptionSpec>> = {
  region: { type: 'string', pattern: AWS_REGION, expected: 'an AWS region such as us-east-1' },
};
