/** Reads typed values from the environment; a bad value is a ConfigError naming the variable. */
import { compile as compileProxyAddresses } from 'proxy-addr';
import { ConfigError } from './config-error';

export type Env = Record<string, string | undefined>;

export class EnvReader {
  constructor(private readonly env: Env) {}

  optionalString(name: string, rules: { minLength?: number } = {}): string | undefined {
    const value = this.env[name];
    if (value === undefined || value === '') return undefined;
    if (rules.minLength !== undefined && value.length < rules.minLength) {
      throw new ConfigError(name, `must be at least ${rules.minLength} characters long`);
    }
    return value;
  }

  string(name: string, fallback: string): string {
    return this.optionalString(name) ?? fallback;
  }

  number(name: string, fallback: number, range: { min: number; max: number }): number {
    const raw = this.optionalString(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < range.min || value > range.max) {
      throw new ConfigError(name, `must be a number from ${range.min} to ${range.max} (got "${raw}")`);
    }
    return value;
  }

  integer(name: string, fallback: number, range: { min: number; max: number }): number {
    const value = this.number(name, fallback, range);
    if (!Number.isInteger(value)) throw new ConfigError(name, `must be a whole number (got "${value}")`);
    return value;
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.optionalString(name);
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    throw new ConfigError(name, `must be true or false (got "${raw}")`);
  }

  oneOf(name: string, allowed: readonly string[], fallback: string): string {
    const raw = this.string(name, fallback);
    if (!allowed.includes(raw)) throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got "${raw}")`);
    return raw;
  }

  /** Only the scheme is echoed in errors: a URL may hold a password. */
  optionalUrl(name: string, protocols: readonly string[]): string | undefined {
    const raw = this.optionalString(name);
    if (raw === undefined) return undefined;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ConfigError(name, 'must be a URL');
    }
    if (!protocols.includes(url.protocol)) {
      throw new ConfigError(name, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);
    }
    return raw;
  }

  /**
   * Express "trust proxy": unset or "false" trusts nothing; "true" trusts every hop
   * (only behind a proxy that overwrites X-Forwarded-For); a number trusts that many
   * hops; anything else is a list of addresses or subnets (e.g. "loopback, 10.0.0.0/8"),
   * which Express splits at commas and hands to proxy-addr's compile: compiled here, so
   * that what it refuses ("True", a host name) stops start-up naming the variable.
   */
  trustProxy(name: string): boolean | number | string {
    const raw = this.optionalString(name);
    if (raw === undefined || raw === 'false') return false;
    if (raw === 'true') return true;
    if (/^\d+$/.test(raw)) return Number(raw);
    try {
      compileProxyAddresses(raw.split(',').map((each) => each.trim()));
    } catch (err) {
      const problem = err instanceof Error ? err.message : String(err);
      throw new ConfigError(name, `must be true, false, a hop count or a list of addresses, subnets, loopback, linklocal or uniquelocal (${problem})`);
    }
    return raw;
  }
}
