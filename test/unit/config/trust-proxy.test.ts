/**
 * TRUST_PROXY is refused at start-up, naming it, when proxy-addr (which Express hands it to)
 * would refuse it (src/config/env-reader.ts).
 */
import express from 'express';
import { ConfigError, loadConfig } from '../../../src/config/config';

const refusedByExpress = (value: string) => {
  try {
    express().set('trust proxy', value);
    return false;
  } catch {
    return true;
  }
};

test.each([
  ['True', 'True', 'invalid IP address: True'],
  ['yes', 'yes', 'invalid IP address: yes'],
  ['a DNS name', 'ingress.example.com', 'invalid IP address: ingress.example.com'],
  ['a subnet with a bad mask', 'loopback, 10.0.0.0/33', 'invalid range on address: 10.0.0.0/33'],
])('when TRUST_PROXY is %s, then config refuses it naming TRUST_PROXY, as Express would', (_name, value, cause) => {
  expect(refusedByExpress(value)).toBe(true);
  expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
  expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(`TRUST_PROXY must be true, false, a hop count or a list of addresses, subnets, loopback, linklocal or uniquelocal (${cause})`);
});

test.each(['loopback', 'loopback, 10.0.0.0/8', '10.0.0.1, fd00::/8', 'uniquelocal,linklocal', '192.168.0.0/255.255.0.0'])('when TRUST_PROXY is %p, then config and Express take it', (value) => {
  expect(refusedByExpress(value)).toBe(false);
  expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(value);
});
