/** Where Twilio posts back: the StatusCallback we give with each message (the inbound webhook is set in its console). */
export const SMS_PREFIX = '/sms';
export const SMS_STATUS_PATH = `${SMS_PREFIX}/twilio/status`;
