/**
 * The server's TLS (docs/operations.md, "At the venue: wcs serve --public"): the certificate and
 * key named by WCS_TLS_CERT/WCS_TLS_KEY, or else, under `--public`, a self-signed certificate made
 * once in <data dir>/tls and reused while it is valid and covers this machine's addresses. Also
 * the lines the start prints about where the server can be reached from a phone in the hall.
 * Every path here comes from the configuration, never from a request.
 */
import { createPrivateKey, randomBytes, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import QRCode from 'qrcode';
import { generate } from 'selfsigned';
import type { Config } from './config.js';

export interface TlsMaterial {
  key: string;
  cert: string;
  /** The certificate's SHA-256, AA:BB:…, as browsers' certificate viewers show it. */
  fingerprintSha256: string;
  /** Made by this server: browsers warn until a person accepts it. */
  selfSigned: boolean;
  /** The certificate's file (a recorder trusts it with `wcs record --ca`). */
  certFile: string;
}

export type TlsConfig = Pick<
  Config,
  'dataDir' | 'publicMode' | 'publicHostname' | 'tlsCertFile' | 'tlsKeyFile'
>;

export interface NetworkAddress {
  address: string;
  family: 4 | 6;
}

/** Under the data folder: the self-signed certificate and its key. */
export const TLS_DIR = 'tls';
export const CERT_FILE = 'cert.pem';
export const KEY_FILE = 'key.pem';
/** The longest validity Apple devices accept for a server certificate. */
export const SELF_SIGNED_VALID_DAYS = 825;
const DAY_MS = 86_400_000;
/** Names and addresses of this machine itself, always in the self-signed certificate. */
const LOOPBACK_NAMES = ['localhost'];
const LOOPBACK_IPS = ['127.0.0.1', '::1'];

/** This machine's addresses on its networks (no loopback), as the OS lists them now. */
export function networkAddresses(): NetworkAddress[] {
  const found: NetworkAddress[] = [];
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (entry.internal) continue;
      found.push({ address: entry.address, family: entry.family === 'IPv4' ? 4 : 6 });
    }
  }
  return found;
}

/** Which is likeliest to be the venue's Wi-Fi: home/venue routers use 192.168/16, then 10/8, then 172.16/12. */
function lanRank(address: string): number {
  if (address.startsWith('192.168.')) return 0;
  if (address.startsWith('10.')) return 1;
  if (/^172\.(1[6-9]|2\d|3[01])\./.test(address)) return 2;
  return 3;
}

export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return name === 'localhost' || name === '::1' || /^(::ffff:)?127\./.test(name);
}

export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

function readPem(file: string, what: string, variable: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `Cannot read the TLS ${what} ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): fix ${variable}, or unset WCS_TLS_CERT and WCS_TLS_KEY`,
    );
  }
}

/** The certificate and key the administrator gave, checked to belong together. */
function givenMaterial(certFile: string, keyFile: string): TlsMaterial {
  const cert = readPem(certFile, 'certificate', 'WCS_TLS_CERT');
  const key = readPem(keyFile, 'key', 'WCS_TLS_KEY');
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch (error) {
    throw new Error(
      `WCS_TLS_CERT ${certFile} is not a PEM certificate (${(error as Error).message}): give the certificate file (-----BEGIN CERTIFICATE-----)`,
    );
  }
  let matches: boolean;
  try {
    matches = x509.checkPrivateKey(createPrivateKey(key));
  } catch (error) {
    throw new Error(
      `WCS_TLS_KEY ${keyFile} is not a PEM private key without a passphrase (${(error as Error).message}): give the key file of ${certFile}`,
    );
  }
  if (!matches) {
    throw new Error(
      `WCS_TLS_KEY ${keyFile} is not the key of the certificate WCS_TLS_CERT ${certFile}: give the key that was made with it`,
    );
  }
  return { key, cert, fingerprintSha256: x509.fingerprint256, selfSigned: false, certFile };
}

/** What the self-signed certificate must name: loopback, the public name, every current address. */
function namesToCover(hostname: string | undefined, addresses: NetworkAddress[]) {
  return {
    dns: [...new Set([...LOOPBACK_NAMES, ...(hostname ? [hostname.toLowerCase()] : [])])],
    ips: [...new Set([...LOOPBACK_IPS, ...addresses.map((entry) => entry.address)])],
  };
}

/**
 * Why the certificate on disk cannot serve (null when it can). IPv6 addresses are put in a new
 * certificate but not required of an old one: privacy addresses change every day, and each new
 * certificate makes every phone accept it again; the URLs printed use IPv4 and the host name.
 */
function reasonToRemake(
  cert: string,
  key: string,
  hostname: string | undefined,
  addresses: NetworkAddress[],
): string | null {
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
    if (!x509.checkPrivateKey(createPrivateKey(key))) return 'has a key file that is not its key';
  } catch (error) {
    return `cannot be read (${(error as Error).message})`;
  }
  const validTo = new Date(x509.validTo);
  if (validTo.getTime() <= Date.now() + DAY_MS) {
    return `expires on ${validTo.toISOString()}`;
  }
  if (hostname && x509.checkHost(hostname) === undefined) return `does not name ${hostname}`;
  const missing = addresses
    .filter((entry) => entry.family === 4 && x509.checkIP(entry.address) === undefined)
    .map((entry) => entry.address);
  if (missing.length > 0) {
    return `does not cover ${missing.join(', ')} (this machine's address${missing.length === 1 ? '' : 'es'} now)`;
  }
  return null;
}

/** Writes `file` whole or not at all: a temporary file in the same folder, then a rename. */
function writeAtomically(file: string, content: string, mode: number): void {
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    fs.writeFileSync(temporary, content, { mode, flag: 'wx' });
    // The mode given to open() is reduced by the umask; the key must be exactly owner-only.
    fs.chmodSync(temporary, mode);
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}

async function makeSelfSigned(
  hostname: string | undefined,
  addresses: NetworkAddress[],
): Promise<{ cert: string; key: string }> {
  const { dns, ips } = namesToCover(hostname, addresses);
  // A day back, for a phone whose clock is a little behind; 825 days in all.
  const notBeforeDate = new Date(Date.now() - DAY_MS);
  const notAfterDate = new Date(notBeforeDate.getTime() + SELF_SIGNED_VALID_DAYS * DAY_MS);
  const pems = await generate(
    [
      { name: 'commonName', value: hostname ?? 'WCS DJ Library' },
      { name: 'organizationName', value: 'WCS DJ Library (self-signed)' },
    ],
    {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate,
      notAfterDate,
      extensions: [
        { name: 'basicConstraints', cA: false, critical: true },
        { name: 'keyUsage', digitalSignature: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            ...dns.map((value) => ({ type: 2 as const, value })),
            ...ips.map((ip) => ({ type: 7 as const, ip })),
          ],
        },
      ],
    },
  );
  return { cert: pems.cert, key: pems.private };
}

/**
 * The TLS material the server listens with: the given certificate and key, or under `--public` the
 * self-signed certificate in <data dir>/tls (made now when missing, expiring within a day, or not
 * covering the public name or a current IPv4 address); undefined for plain HTTP.
 */
export async function loadTls(
  config: TlsConfig,
  log: (line: string) => void,
  options: { addresses?: () => NetworkAddress[] } = {},
): Promise<TlsMaterial | undefined> {
  if (config.tlsCertFile && config.tlsKeyFile) return givenMaterial(config.tlsCertFile, config.tlsKeyFile);
  if (!config.publicMode) return undefined;

  const dir = path.join(config.dataDir, TLS_DIR);
  const certFile = path.join(dir, CERT_FILE);
  const keyFile = path.join(dir, KEY_FILE);
  const addresses = (options.addresses ?? networkAddresses)();
  const hasCert = fs.existsSync(certFile);
  const hasKey = fs.existsSync(keyFile);
  let reason: string | null = null;
  if (hasCert && hasKey) {
    const cert = fs.readFileSync(certFile, 'utf8');
    const key = fs.readFileSync(keyFile, 'utf8');
    reason = reasonToRemake(cert, key, config.publicHostname, addresses);
    if (reason === null) {
      const fingerprintSha256 = new X509Certificate(cert).fingerprint256;
      return { key, cert, fingerprintSha256, selfSigned: true, certFile };
    }
  } else if (hasCert || hasKey) {
    reason = `has no ${hasCert ? KEY_FILE : CERT_FILE} beside it`;
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const made = await makeSelfSigned(config.publicHostname, addresses);
  // The key first: a certificate on disk without its key would be remade at the next start anyway.
  writeAtomically(keyFile, made.key, 0o600);
  writeAtomically(certFile, made.cert, 0o644);
  const x509 = new X509Certificate(made.cert);
  const { dns, ips } = namesToCover(config.publicHostname, addresses);
  log(
    `${reason !== null ? `Made a new self-signed TLS certificate because the old one ${reason}; phones and recorders must accept or trust it again.` : 'Made a self-signed TLS certificate.'} ` +
      `It is in ${certFile}, for ${[...dns, ...ips].join(', ')}, valid until ${new Date(x509.validTo).toISOString().slice(0, 10)}.`,
  );
  return {
    key: made.key,
    cert: made.cert,
    fingerprintSha256: x509.fingerprint256,
    selfSigned: true,
    certFile,
  };
}

function urlHost(host: string): string {
  return net.isIPv6(host) ? `[${host}]` : host;
}

export interface ListeningInfo {
  /** The bound address, as configured (HOST or --host; 0.0.0.0 under --public). */
  host: string;
  port: number;
  tls: TlsMaterial | undefined;
  publicHostname: string | undefined;
  addresses?: NetworkAddress[];
}

/**
 * The addresses another device can open, best first: the public host name, then this machine's
 * IPv4 addresses (venue Wi-Fi ranges first). Empty when only loopback is bound.
 */
export function reachableUrls(info: ListeningInfo): string[] {
  if (isLoopbackHost(info.host)) return [];
  const scheme = info.tls ? 'https' : 'http';
  const hosts: string[] = [];
  if (info.publicHostname) hosts.push(info.publicHostname);
  if (isWildcardHost(info.host)) {
    const ipv4 = (info.addresses ?? networkAddresses())
      .filter((entry) => entry.family === 4)
      .map((entry) => entry.address)
      .sort((a, b) => lanRank(a) - lanRank(b));
    hosts.push(...ipv4);
  } else {
    hosts.push(info.host);
  }
  return [...new Set(hosts)].map((host) => `${scheme}://${urlHost(host)}:${info.port}`);
}

/** A QR code for a terminal, one string a line (without the trailing lines of colour codes alone). */
export async function qrLines(text: string): Promise<string[]> {
  const qr = await QRCode.toString(text, { type: 'terminal', small: true });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's colour codes
  return qr.split('\n').filter((line) => line.replace(/\u001b\[\d+m/g, '').trim() !== '');
}

/**
 * What the start prints after its "listening" line about other devices: the URLs, a QR code of the
 * best one, the fingerprint of a self-signed certificate, and a warning when the server is open
 * to the network without TLS.
 */
export async function venueLines(info: ListeningInfo): Promise<string[]> {
  const lines: string[] = [];
  if (isLoopbackHost(info.host)) return lines;
  const urls = reachableUrls(info);
  if (!info.tls) {
    lines.push(
      `WARNING: listening on ${info.host} WITHOUT TLS: anyone on this network can reach the server and read what it sends, passwords and tokens included. Use "wcs serve --public" (TLS), or HOST=127.0.0.1 to stay on this machine.`,
    );
  }
  if (urls.length === 0) {
    lines.push(
      'No network address found on this machine: connect it to the venue network, then restart so phones get a URL.',
    );
  } else {
    lines.push(`From a phone or laptop on the same network, open: ${urls.join('  ')}`);
  }
  if (info.tls && urls[0]) {
    lines.push(`Or scan this code for ${urls[0]}:`, ...(await qrLines(urls[0])));
  }
  if (info.tls?.selfSigned) {
    lines.push(
      `Self-signed certificate ${info.tls.certFile}, SHA-256 fingerprint:`,
      `  ${info.tls.fingerprintSha256}`,
      "  Browsers warn about it: check this fingerprint in the browser's certificate viewer before accepting it.",
      `  A recorder trusts it with: wcs record --server ${urls[0] ?? `https://<address>:${info.port}`} --ca <a copy of ${CERT_FILE}> --token <token>`,
    );
  }
  return lines;
}
