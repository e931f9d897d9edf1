import path from 'node:path';
import type { Config } from '../../config.ts';
import type { ObjectStore } from '../../domain/proofs/ports.ts';
import { fsObjectStore } from './fs-object-store.ts';
import { s3ObjectStore } from './s3-object-store.ts';

type ObjectStoreSettings = Pick<Config, 'objectStore' | 'dataDir' | 's3'>;

/** OBJECT_STORE=fs (DATA_DIR/objects, the default) or s3 (config.ts checks the S3_* settings are there). */
export function createObjectStore(config: ObjectStoreSettings): ObjectStore {
  if (config.objectStore === 's3' && config.s3) return s3ObjectStore(config.s3);
  return fsObjectStore(path.join(config.dataDir, 'objects'));
}
