/**
 * The server's TLS material (tls.ts): the self-signed certificate of `--public`, made once and
 * reused, remade when it no longer fits; a given certificate and key used as they are; and the
 * lines the start prints for phones.
 */
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import QRCode from 'qrcode';
import { generate } from 'selfsigned';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CERT_FILE,
  KEY_FILE,
  loadTls,
  type NetworkAddress,
  networkAddresses,
  reachableUrls,
  SELF_SIGNED_VALID_DAYS,
  TLS_DIR,
  type TlsConfig,
  venueLines,
} from './tls.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

const VENUE: NetworkAddress[] = [
  { address: '172.17.0.1', family: 4 },
  { address: '192.168.1.20', family: 4 },
  { address: 'fd00::20', family: 6 },
];

function publicConfig(overrides: Partial<TlsConfig> = {}): TlsConfig {
  return {
    dataDir: tempDir('wcs-tls-'),
    publicMode: true,
    publicHostname: undefined,
    tlsCertFile: undefined,
    tlsKeyFile: undefined,
    ...overrides,
  };
}

const collect = () => {
  const lines: string[] = [];
  return { lines, log: (line: string) => lines.push(line) };
};

describe('loadTls', () => {
  it('is plain HTTP without --public and without a certificate', async () => {
    const config = publicConfig({ publicMode: false });
    expect(await loadTls(config, () => {})).toBeUndefined();
    expect(fs.existsSync(path.join(config.dataDir, TLS_DIR))).toBe(false);
  });

  it('makes a self-signed certificate once, for loopback, the host name and every address, key 0600', async () => {
    const config = publicConfig({ publicHostname: 'venue.test' });
    const first = collect();
    const made = await loadTls(config, first.log, { addresses: () => VENUE });
    const certFile = path.join(config.dataDir, TLS_DIR, CERT_FILE);
    const keyFile = path.join(config.dataDir, TLS_DIR, KEY_FILE);
    expect(made).toMatchObject({ selfSigned: true, certFile });
    expect(fs.readFileSync(certFile, 'utf8')).toBe(made!.cert);
    expect(fs.readFileSync(keyFile, 'utf8')).toBe(made!.key);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(config.dataDir, TLS_DIR)).mode & 0o777).toBe(0o700);
    // Nothing but the two files: the temporary ones were renamed.
    expect(fs.readdirSync(path.join(config.dataDir, TLS_DIR)).sort()).toEqual([CERT_FILE, KEY_FILE]);

    const x509 = new X509Certificate(made!.cert);
    expect(made!.fingerprintSha256).toBe(x509.fingerprint256);
    expect(made!.fingerprintSha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(x509.subjectAltName?.split(', ')).toEqual([
      'DNS:localhost',
      'DNS:venue.test',
      'IP Address:127.0.0.1',
      'IP Address:0:0:0:0:0:0:0:1',
      'IP Address:172.17.0.1',
      'IP Address:192.168.1.20',
      'IP Address:FD00:0:0:0:0:0:0:20',
    ]);
    for (const ip of ['127.0.0.1', '::1', '192.168.1.20', 'fd00::20']) expect(x509.checkIP(ip)).toBe(ip);
    expect(x509.checkHost('venue.test')).toBe('venue.test');
    expect(x509.checkHost('evil.example')).toBeUndefined();
    const days = (Date.parse(x509.validTo) - Date.parse(x509.validFrom)) / 86_400_000;
    expect(days).toBe(SELF_SIGNED_VALID_DAYS);
    expect(x509.publicKey.asymmetricKeyType).toBe('ec');
    expect(first.lines).toHaveLength(1);
    expect(first.lines[0]).toMatch(
      new RegExp(
        `^Made a self-signed TLS certificate\\. It is in ${certFile}, for localhost, venue\\.test, 127\\.0\\.0\\.1, ::1, 172\\.17\\.0\\.1, 192\\.168\\.1\\.20, fd00::20, valid until \\d{4}-\\d\\d-\\d\\d\\.$`,
      ),
    );

    // The second start reuses it as it is, silently, even when an IPv6 address changed.
    const certMtime = fs.statSync(certFile).mtimeMs;
    const second = collect();
    const reused = await loadTls(config, second.log, {
      addresses: () => [VENUE[0]!, VENUE[1]!, { address: 'fd00::99', family: 6 }],
    });
    expect(reused).toEqual(made);
    expect(fs.statSync(certFile).mtimeMs).toBe(certMtime);
    expect(second.lines).toEqual([]);
  });

  it('makes a new one when this machine has a new IPv4 address, the host name changed, or it expired', async () => {
    const config = publicConfig();
    const first = await loadTls(config, () => {}, { addresses: () => VENUE });

    const moved = collect();
    const afterMove = await loadTls(config, moved.log, {
      addresses: () => [{ address: '10.0.0.7', family: 4 }],
    });
    expect(afterMove!.fingerprintSha256).not.toBe(first!.fingerprintSha256);
    expect(new X509Certificate(afterMove!.cert).checkIP('10.0.0.7')).toBe('10.0.0.7');
    expect(moved.lines[0]).toMatch(
      /^Made a new self-signed TLS certificate because the old one does not cover 10\.0\.0\.7 \(this machine's address now\); phones and recorders must accept or trust it again\. /,
    );

    const renamed = collect();
    const named = await loadTls({ ...config, publicHostname: 'dj.local' }, renamed.log, {
      addresses: () => [{ address: '10.0.0.7', family: 4 }],
    });
    expect(new X509Certificate(named!.cert).checkHost('dj.local')).toBe('dj.local');
    expect(renamed.lines[0]).toMatch(/because the old one does not name dj\.local;/);

    // An expired certificate (with its own key) in place of the good one.
    const old = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      notBeforeDate: new Date('2020-01-01T00:00:00Z'),
      notAfterDate: new Date('2022-01-01T00:00:00Z'),
    });
    fs.writeFileSync(path.join(config.dataDir, TLS_DIR, CERT_FILE), old.cert);
    fs.writeFileSync(path.join(config.dataDir, TLS_DIR, KEY_FILE), old.private);
    const expired = collect();
    const renewed = await loadTls(config, expired.log, { addresses: () => [] });
    expect(Date.parse(new X509Certificate(renewed!.cert).validTo)).toBeGreaterThan(Date.now());
    expect(expired.lines[0]).toMatch(/because the old one expires on 2022-01-01T00:00:00\.000Z;/);

    // A key that is not the certificate's (a half-finished copy by hand).
    fs.writeFileSync(path.join(config.dataDir, TLS_DIR, KEY_FILE), old.private);
    const mismatched = collect();
    await loadTls(config, mismatched.log, { addresses: () => [] });
    expect(mismatched.lines[0]).toMatch(/because the old one has a key file that is not its key;/);

    // A key lost by hand: the certificate alone cannot serve.
    fs.rmSync(path.join(config.dataDir, TLS_DIR, KEY_FILE));
    const keyless = collect();
    await loadTls(config, keyless.log, { addresses: () => [] });
    expect(keyless.lines[0]).toMatch(/because the old one has no key\.pem beside it;/);
    expect(fs.statSync(path.join(config.dataDir, TLS_DIR, KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('uses a given certificate and key as they are, with or without --public, and makes nothing', async () => {
    const dir = tempDir('wcs-tls-given-');
    const given = await generate([{ name: 'commonName', value: 'music.example.org' }], {
      keyType: 'rsa',
      keySize: 2048,
      algorithm: 'sha256',
    });
    const certFile = path.join(dir, 'fullchain.pem');
    const keyFile = path.join(dir, 'privkey.pem');
    fs.writeFileSync(certFile, given.cert);
    fs.writeFileSync(keyFile, given.private);
    for (const publicMode of [true, false]) {
      const config = publicConfig({ publicMode, tlsCertFile: certFile, tlsKeyFile: keyFile });
      const { lines, log } = collect();
      expect(await loadTls(config, log)).toEqual({
        key: given.private,
        cert: given.cert,
        fingerprintSha256: new X509Certificate(given.cert).fingerprint256,
        selfSigned: false,
        certFile,
      });
      expect(lines).toEqual([]);
      expect(fs.existsSync(path.join(config.dataDir, TLS_DIR))).toBe(false);
    }
  });

  it('says what is wrong with a given certificate or key, and what to do', async () => {
    const dir = tempDir('wcs-tls-given-');
    const one = await generate(undefined, { keyType: 'ec', algorithm: 'sha256' });
    const other = await generate(undefined, { keyType: 'ec', algorithm: 'sha256' });
    const certFile = path.join(dir, 'cert.pem');
    const keyFile = path.join(dir, 'key.pem');
    fs.writeFileSync(certFile, one.cert);
    fs.writeFileSync(keyFile, other.private);
    const config = publicConfig({ tlsCertFile: certFile, tlsKeyFile: keyFile });
    await expect(loadTls(config, () => {})).rejects.toThrow(
      `WCS_TLS_KEY ${keyFile} is not the key of the certificate WCS_TLS_CERT ${certFile}: give the key that was made with it`,
    );
    await expect(loadTls({ ...config, tlsKeyFile: path.join(dir, 'missing.pem') }, () => {})).rejects.toThrow(
      `Cannot read the TLS key ${path.join(dir, 'missing.pem')} (ENOENT): fix WCS_TLS_KEY, or unset WCS_TLS_CERT and WCS_TLS_KEY`,
    );
    await expect(loadTls({ ...config, tlsCertFile: keyFile }, () => {})).rejects.toThrow(
      new RegExp(`^WCS_TLS_CERT ${keyFile} is not a PEM certificate .*: give the certificate file`),
    );
  });
});

describe('what the start prints for other devices', () => {
  const tls = {
    key: '',
    cert: '',
    fingerprintSha256: 'AA:BB:CC',
    selfSigned: true,
    certFile: '/data/tls/cert.pem',
  };

  it('lists the host name first, then the venue-range IPv4 addresses, only for a non-loopback bind', () => {
    const info = { host: '0.0.0.0', port: 8443, tls, publicHostname: 'dj.local', addresses: VENUE };
    expect(reachableUrls(info)).toEqual([
      'https://dj.local:8443',
      'https://192.168.1.20:8443',
      'https://172.17.0.1:8443',
    ]);
    expect(reachableUrls({ ...info, host: '192.168.1.20', publicHostname: undefined })).toEqual([
      'https://192.168.1.20:8443',
    ]);
    expect(reachableUrls({ ...info, host: '127.0.0.1' })).toEqual([]);
    expect(reachableUrls({ ...info, tls: undefined, publicHostname: undefined })[0]).toBe(
      'http://192.168.1.20:8443',
    );
  });

  it('prints the URLs, a QR code of the best one and the fingerprint; warns without TLS', async () => {
    const info = { host: '0.0.0.0', port: 8443, tls, publicHostname: undefined, addresses: VENUE };
    const lines = await venueLines(info);
    const qr = (await QRCode.toString('https://192.168.1.20:8443', { type: 'terminal', small: true }))
      .split('\n')
      // Its last line holds colour codes only.
      .slice(0, -1);
    expect(lines).toEqual([
      'From a phone or laptop on the same network, open: https://192.168.1.20:8443  https://172.17.0.1:8443',
      'Or scan this code for https://192.168.1.20:8443:',
      ...qr,
      'Self-signed certificate /data/tls/cert.pem, SHA-256 fingerprint:',
      '  AA:BB:CC',
      "  Browsers warn about it: check this fingerprint in the browser's certificate viewer before accepting it.",
      '  A recorder trusts it with: wcs record --server https://192.168.1.20:8443 --ca <a copy of cert.pem> --token <token>',
    ]);

    const open = await venueLines({ ...info, tls: undefined });
    expect(open[0]).toMatch(
      /^WARNING: listening on 0\.0\.0\.0 WITHOUT TLS: anyone on this network can reach/,
    );
    expect(open).toHaveLength(2);
    expect(open[1]).toContain('http://192.168.1.20:8443');
    expect(await venueLines({ ...info, host: '127.0.0.1' })).toEqual([]);
    expect(await venueLines({ ...info, addresses: [] })).toContain(
      'No network address found on this machine: connect it to the venue network, then restart so phones get a URL.',
    );
  });

  it("reads this machine's addresses without loopback", () => {
    const addresses = networkAddresses();
    expect(addresses.map((entry) => entry.address)).not.toContain('127.0.0.1');
    expect(addresses.map((entry) => entry.address)).not.toContain('::1');
  });
});
