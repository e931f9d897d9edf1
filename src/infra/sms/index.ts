import path from 'node:path';
import type { TwilioConfig } from '../../config.ts';
import type { OptOuts, SmsSender } from '../../domain/recipients/ports.ts';
import { jsonRequester } from '../http/json-request.ts';
import { outboundClient } from '../http/outbound-client.ts';
import { fileSmsSender } from './file-sms-sender.ts';
import { twilioSmsSender } from './twilio-sms-sender.ts';

/**
 * The SMS provider the config names: Twilio when TWILIO_* are set (config.ts checks they come
 * together), else files under `DATA_DIR/sms`.
 */
export function createSmsSender(options: {
  twilio: TwilioConfig | null;
  dataDir: string;
  /** `{PUBLIC_BASE_URL}/sms/twilio/status`: where Twilio reports on each message. */
  statusCallbackUrl: string;
  optOuts: Pick<OptOuts, 'optOut'>;
  log: (message: string) => void;
  clock: () => Date;
}): SmsSender {
  if (options.twilio === null)
    return fileSmsSender({
      dropDir: path.join(options.dataDir, 'sms'),
      log: options.log,
      clock: options.clock,
    });
  // Twilio's host is the operator's choice, not a tenant's; plain http only on the loopback
  // (config.ts), where the tests' fake listens.
  const client = outboundClient({
    allowInsecure: options.twilio.apiBase.startsWith('http:'),
    publicRule: "Twilio's API must be at a public address",
  });
  return twilioSmsSender({
    ...options.twilio,
    statusCallbackUrl: options.statusCallbackUrl,
    request: jsonRequester(client),
    optOuts: options.optOuts,
    clock: options.clock,
  });
}
