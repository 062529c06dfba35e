import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { parseListen, parseMetricsSettings } from './metrics-settings.js';

describe('metrics settings', () => {
  it('are off by default, with the timing headers on', () => {
    expect(parseMetricsSettings({}, {})).toEqual({ enabled: false, timingHeaders: true });
  });

  it('listen on loopback when enabled with neither a listen address nor a token', () => {
    expect(parseMetricsSettings({ enabled: true }, {})).toEqual({ enabled: true, timingHeaders: true, listen: { host: '127.0.0.1', port: 9464 } });
  });

  it('serve the main port only when a token is given', () => {
    expect(parseMetricsSettings({ enabled: true, token: 'a-long-enough-token' }, {})).toEqual({
      enabled: true,
      timingHeaders: true,
      token: 'a-long-enough-token',
    });
  });

  it('read the environment over the file', () => {
    const settings = parseMetricsSettings(
      { enabled: false, listen: '9000' },
      { GENGATE_METRICS: 'true', GENGATE_METRICS_LISTEN: '0.0.0.0:9100', GENGATE_METRICS_TOKEN: 'from-the-environment', GENGATE_TIMING_HEADERS: 'false' },
    );
    expect(settings).toEqual({ enabled: true, timingHeaders: false, listen: { host: '0.0.0.0', port: 9100 }, token: 'from-the-environment' });
  });

  it('refuse a short token, a token with spaces, an unknown setting and a non-boolean', () => {
    expect(() => parseMetricsSettings({ token: 'short' }, {})).toThrow(/metrics\.token must be at least 16/);
    expect(() => parseMetricsSettings({ token: 'has a space inside it' }, {})).toThrow(ConfigError);
    expect(() => parseMetricsSettings({ port: 9000 }, {})).toThrow(/metrics\.port is not a setting/);
    expect(() => parseMetricsSettings({ enabled: 'yes' }, {})).toThrow(/metrics\.enabled must be true or false/);
  });
});

describe('metrics.listen', () => {
  it('takes a port (loopback), :port, host:port and [ipv6]:port', () => {
    expect(parseListen(9464)).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parseListen(':9464')).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parseListen('10.0.0.5:9100')).toEqual({ host: '10.0.0.5', port: 9100 });
    expect(parseListen('[::1]:9100')).toEqual({ host: '::1', port: 9100 });
  });

  it('refuses what is not an address', () => {
    for (const bad of ['', 'host', 'host:0', 'host:70000', 'a b:9000', 'http://x:9000', {}]) expect(() => parseListen(bad)).toThrow(/metrics\.listen/);
  });
});
