import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software authenticator for the integration tests: what a browser and a passkey do together,
 * built from the WebAuthn spec with node:crypto (ES256 keys) and CBOR ("none" attestation). Each
 * answer can be bent the way an attacker or a broken authenticator would: another origin or RP id,
 * a counter that does not grow, no user verification.
 */
export interface Bend {
  origin?: string;
  rpId?: string;
  /** The signature counter to report instead of the next one. */
  counter?: number;
  /** User verification (the UV flag); true unless said otherwise. */
  userVerified?: boolean;
  /** The challenge to sign instead of the options' one. */
  challenge?: string;
  type?: string;
}

interface Credential {
  id: string;
  privateKey: KeyObject;
  cose: Uint8Array;
  counter: number;
  userHandle: string;
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array | string) => Buffer.from(data).toString('base64url');

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];
  readonly origin: string;
  /** Whether the counter moves on each use; synced passkeys keep it at 0. */
  readonly counting: boolean;

  constructor(baseUrl: string, options: { counting?: boolean } = {}) {
    this.origin = new URL(baseUrl).origin;
    this.counting = options.counting ?? true;
  }

  get rpId(): string {
    return new URL(this.origin).hostname;
  }

  /** `navigator.credentials.create()` with these options: a new key pair, attested "none". */
  register(options: PublicKeyCredentialCreationOptionsJSON, bend: Bend = {}): RegistrationResponseJSON {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    // COSE_Key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const id = randomBytes(16);
    const credential: Credential = { id: b64url(id), privateKey, cose, counter: 0, userHandle: options.user.id };
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([this.authDataHead(bend, 0x40, bend.counter ?? 0), Buffer.alloc(16), idLength, id, cose]);
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, bend);
    const attestationObject = isoCBOR.encode(new Map<string, string | Uint8Array | Map<string, string>>([['fmt', 'none'], ['attStmt', new Map<string, string>()], ['authData', authData]]));
    this.credentials.push(credential);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** `navigator.credentials.get()`: signs with `credentialId`, else the first allowed or own credential. */
  assert(options: PublicKeyCredentialRequestOptionsJSON, credentialId?: string, bend: Bend = {}): AuthenticationResponseJSON {
    const allowed = options.allowCredentials?.map((c) => c.id) ?? [];
    const id = credentialId ?? allowed.find((a) => this.credentials.some((c) => c.id === a)) ?? this.credentials[0]?.id;
    const credential = this.credentials.find((c) => c.id === id);
    if (!credential) throw new Error('no such credential in this authenticator');
    if (this.counting && bend.counter === undefined) credential.counter += 1;
    // A jump forward is remembered, as a real authenticator's count would be.
    if (bend.counter !== undefined) credential.counter = Math.max(credential.counter, bend.counter);
    const authData = this.authDataHead(bend, 0, bend.counter ?? credential.counter);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, bend);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(signature), userHandle: credential.userHandle },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** rpIdHash, flags (UP, UV unless bent, plus `extra`), signature counter. */
  private authDataHead(bend: Bend, extra: number, counter: number): Buffer {
    const flags = 0x01 | (bend.userVerified === false ? 0 : 0x04) | extra;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(bend.rpId ?? this.rpId), Buffer.from([flags]), count]);
  }

  private clientData(type: string, challenge: string, bend: Bend): Buffer {
    return Buffer.from(JSON.stringify({ type: bend.type ?? type, challenge: bend.challenge ?? challenge, origin: bend.origin ?? this.origin, crossOrigin: false }));
  }
}
