import { Type } from '@sinclair/typebox';
import { LABEL_FORMATS, LABEL_SIZES } from '../../../domain/labels/label.ts';
import { MAX_BATCH_REFS } from '../../../domain/labels/label-service.ts';
import { PATH_PARAM_MAX_LENGTH, StringEnum } from './shared.ts';

const FORMAT_DESCRIPTION =
  '`pdf` (the default): one label per page, for office and label printers. `zpl`: ZPL II for 203 dpi ' +
  'thermal printers (Zebra and compatibles), one `^XA … ^XZ` format per label.';
const SIZE_DESCRIPTION =
  '`a6` (105 × 148 mm, the default; 840 × 1184 dots in ZPL) or `4x6` (4 × 6 in; 812 × 1218 dots in ZPL).';

export const LabelQuery = Type.Object(
  {
    format: Type.Optional(StringEnum(LABEL_FORMATS, { default: 'pdf', description: FORMAT_DESCRIPTION })),
    size: Type.Optional(StringEnum(LABEL_SIZES, { default: 'a6', description: SIZE_DESCRIPTION })),
  },
  { additionalProperties: false },
);

export const LabelBatchBody = Type.Object(
  {
    tracking_refs: Type.Array(
      Type.String({
        minLength: 1,
        maxLength: PATH_PARAM_MAX_LENGTH,
        description: 'A trackingRef of the brand (any case), e.g. `DLV-7K3M9Q2XHP`.',
      }),
      {
        minItems: 1,
        maxItems: MAX_BATCH_REFS,
        description:
          'The orders to print, in the order wanted; each once (a repeat is a 400). Every order must be the ' +
          "brand's and collectable, or nothing is printed.",
      },
    ),
    format: Type.Optional(StringEnum(LABEL_FORMATS, { default: 'pdf', description: FORMAT_DESCRIPTION })),
    size: Type.Optional(StringEnum(LABEL_SIZES, { default: 'a6', description: SIZE_DESCRIPTION })),
  },
  { additionalProperties: false },
);

/** The document: a PDF, or ZPL text, described by media type (OpenAPI 3.1 binary bodies). */
export const LABEL_DOCUMENT = {
  description:
    'The labels: `application/pdf` (one page per label) or `application/zpl` (ZPL II text, UTF-8, `^CI28`), ' +
    'as asked by `format`. An order prints one label per unit (its `quantity`), numbered "1/3", "2/3"…',
  content: {
    'application/pdf': { schema: { contentMediaType: 'application/pdf' } },
    'application/zpl': { schema: { type: 'string', maxLength: 10_000_000 } },
  },
};
