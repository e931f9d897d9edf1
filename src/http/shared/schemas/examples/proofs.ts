import { CANCELLED_MEANWHILE } from './scans.ts';
import type { OperationExamples } from './types.ts';

export const OPS_PROOF_EXAMPLES: Record<string, OperationExamples> = {
  opsRecordProof: {
    responses: {
      200: {
        delivered: {
          summary: 'Delivered, with its photo and signature stored',
          value: {
            id: '8a2e4c6d-1f3b-4a5c-9d7e-2b4c6d8e0f1a',
            result: 'applied',
            tracking_ref: 'DLV-4T8N2W6RJC',
            status: 'delivered',
            problem: null,
          },
        },
        refused: {
          summary: 'Refused: the order was cancelled meanwhile (no file kept)',
          value: CANCELLED_MEANWHILE,
        },
      },
    },
    unprocessable: {
      unreadable_image: {
        summary: 'A file that is a JPEG by its first bytes but cannot be decoded (nothing stored)',
        message: 'photo: the image cannot be read (truncated JPEG data)',
        details: [{ field: 'photo', message: 'cannot be read as an image' }],
      },
    },
  },
};
