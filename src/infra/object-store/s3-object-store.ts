import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../../config.ts';
import { checkObjectKey, type ObjectStore } from '../../domain/proofs/ports.ts';

type S3 = typeof import('@aws-sdk/client-s3');

/**
 * Objects in an S3 bucket (AWS SDK v3). The SDK is heavy: it is loaded at the first call, so a
 * process that never touches a proof file (and every `dlv` command) never loads it. S3 writes are
 * atomic per object already.
 */
export function s3ObjectStore(settings: S3Config): ObjectStore & { close(): void } {
  let loaded: Promise<{ sdk: S3; client: S3Client }> | null = null;
  const load = () => {
    loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: settings.region,
        forcePathStyle: settings.forcePathStyle,
        ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
        ...(settings.credentials ? { credentials: settings.credentials } : {}),
      }),
    }));
    return loaded;
  };
  const notFound = (err: unknown) => {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
  };
  const Bucket = settings.bucket;
  return {
    async put(key, bytes, contentType) {
      checkObjectKey(key);
      const { sdk, client } = await load();
      await client.send(
        new sdk.PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: contentType }),
      );
    },
    async get(key) {
      checkObjectKey(key);
      const { sdk, client } = await load();
      try {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key }));
        const bytes = Buffer.from(await answer.Body!.transformToByteArray());
        return { bytes, contentType: answer.ContentType ?? 'application/octet-stream' };
      } catch (err) {
        if (notFound(err)) return null;
        throw err;
      }
    },
    async delete(key) {
      checkObjectKey(key);
      const { sdk, client } = await load();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
    },
    async exists(key) {
      checkObjectKey(key);
      const { sdk, client } = await load();
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (err) {
        if (notFound(err)) return false;
        throw err;
      }
    },
    close() {
      void loaded?.then(({ client }) => client.destroy());
    },
  };
}
