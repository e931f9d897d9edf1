/** Where Twilio posts back (the StatusCallback we send, the number's inbound webhook). */
export const SMS_PREFIX = '/sms';
export const SMS_STATUS_PATH = `${SMS_PREFIX}/twilio/status`;
export const SMS_INBOUND_PATH = `${SMS_PREFIX}/twilio/inbound`;
