export { addBusinessDays, businessDaysAfter, isBusinessDay, nextBusinessDay } from './business-days.ts';
export { isPublicHoliday, publicHolidays } from './holidays.ts';
export { addDays, isIsoDate } from './iso-date.ts';
export type { ParisLocalTime } from './paris-time.ts';
export { parisLocalTime, parisToday } from './paris-time.ts';
export { promisedDate, startDate } from './promised-date.ts';
