import { describe, expect, it } from 'vitest';
import { fromMjTaskRecord } from './from-mj-task-record.js';

const grid = (hash: string) => [
  ...[1, 2, 3, 4].map((n) => ({ customId: `MJ::JOB::upsample::${n}::${hash}`, emoji: '', label: `U${n}`, type: 2, style: 2 })),
  { customId: `MJ::JOB::reroll::0::${hash}::SOLO`, emoji: '🔄', label: '', type: 2, style: 2 },
  ...[1, 2, 3, 4].map((n) => ({ customId: `MJ::JOB::variation::${n}::${hash}`, emoji: '', label: `V${n}`, type: 2, style: 2 })),
];

describe('fromMjTaskRecord', () => {
  it('in progress: status, vendor status and progress; the preview image is not an output', () => {
    expect(fromMjTaskRecord({ id: '1', action: 'IMAGINE', status: 'IN_PROGRESS', progress: '46%', imageUrl: 'https://cdn.example/preview.png' })).toEqual({
      status: 'running',
      vendorStatus: 'IN_PROGRESS',
      progress: 0.46,
    });
    expect(fromMjTaskRecord({ status: 'NOT_START', progress: '0%' })).toEqual({ status: 'submitted', vendorStatus: 'NOT_START', progress: 0 });
    expect(fromMjTaskRecord({ status: 'MODAL', progress: '' })).toEqual({ status: 'running', vendorStatus: 'MODAL' });
  });

  it('an unknown status is unknown, with the vendor word kept', () => {
    expect(fromMjTaskRecord({ status: 'PAUSED', progress: '10%' })).toEqual({ status: 'unknown', vendorStatus: 'PAUSED', progress: 0.1 });
    expect(fromMjTaskRecord({})).toEqual({ status: 'unknown', vendorStatus: '' });
  });

  it('success: the image URL as output and the nine grid buttons', () => {
    const observation = fromMjTaskRecord({
      action: 'IMAGINE',
      status: 'SUCCESS',
      progress: '100%',
      imageUrl: 'https://cdn.example/a.png',
      buttons: grid('h1'),
    });
    expect(observation).toMatchObject({
      status: 'succeeded',
      vendorStatus: 'SUCCESS',
      progress: 1,
      outputs: [{ url: 'https://cdn.example/a.png', kind: 'image' }],
    });
    expect(observation.buttons?.map((button) => button.label)).toEqual(['U1', 'U2', 'U3', 'U4', '', 'V1', 'V2', 'V3', 'V4']);
    expect(observation.buttons?.[4]).toEqual({ customId: 'MJ::JOB::reroll::0::h1::SOLO', label: '', emoji: '🔄', type: 2, style: 2 });
  });

  it('success without a usable image fails the task instead of leaving it hanging', () => {
    for (const imageUrl of [undefined, '', 'ftp://x/a.png', 'not a url']) {
      expect(fromMjTaskRecord({ action: 'UPSCALE', status: 'SUCCESS', imageUrl })).toMatchObject({ status: 'failed', error: { code: 'upstream_failed' } });
    }
  });

  it('describe: the text from properties.finalPrompt (else prompt), no outputs', () => {
    const text = '1️⃣ a cat --ar 1:1\n\n2️⃣ a dog';
    const described = fromMjTaskRecord({
      action: 'DESCRIBE',
      status: 'SUCCESS',
      prompt: 'old',
      imageUrl: 'https://cdn.example/in.png',
      properties: { finalPrompt: text },
    });
    expect(described).toMatchObject({ status: 'succeeded', text });
    expect(described.outputs).toBeUndefined();
    expect(fromMjTaskRecord({ action: 'DESCRIBE', status: 'SUCCESS', prompt: text, properties: {} }).text).toBe(text);
    expect(fromMjTaskRecord({ action: 'DESCRIBE', status: 'SUCCESS', prompt: '' })).toMatchObject({ status: 'failed' });
  });

  it('failure: upstream_failed with the failReason, or a default', () => {
    expect(fromMjTaskRecord({ status: 'FAILURE', progress: '', failReason: 'Banned prompt detected' })).toEqual({
      status: 'failed',
      vendorStatus: 'FAILURE',
      error: { code: 'upstream_failed', message: 'Banned prompt detected' },
    });
    expect(fromMjTaskRecord({ status: 'FAILURE', failReason: '' }).error).toEqual({ code: 'upstream_failed', message: 'the upstream reported a failure' });
    expect(fromMjTaskRecord({ status: 'CANCEL' })).toMatchObject({ status: 'canceled', error: { code: 'upstream_canceled' } });
  });
});
