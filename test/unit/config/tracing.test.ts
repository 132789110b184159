import { EnvReader } from '../../../src/config/env-reader';
import { DEFAULT_SERVICE_NAME, readTracing } from '../../../src/config/tracing';

const tracingOf = (env: Record<string, string>) => readTracing(new EnvReader(env));

describe('readTracing', () => {
  test.each([
    ['nothing is set', {}, undefined],
    ['an OTLP endpoint is named', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, DEFAULT_SERVICE_NAME],
    ['a traces endpoint is named', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, DEFAULT_SERVICE_NAME],
    ['an exporter is named', { OTEL_TRACES_EXPORTER: 'otlp', OTEL_SERVICE_NAME: 'pps-eu' }, 'pps-eu'],
    ['the exporter is none, beside an endpoint', { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, undefined],
    ['the SDK is disabled, beside an endpoint', { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, undefined],
  ])('when %s, then tracing is %s', (_name, env, serviceName) => {
    expect(tracingOf(env)?.serviceName).toBe(serviceName);
  });

  test('when OTEL_SDK_DISABLED is not a boolean, then startup stops naming it', () => {
    expect(() => tracingOf({ OTEL_SDK_DISABLED: 'maybe' })).toThrow(/OTEL_SDK_DISABLED/);
  });
});
