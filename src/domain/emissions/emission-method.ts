import { methodId, methodText } from './emission-settings.ts';

/**
 * The default settings' method (emission-settings.ts): the identifier each figure computed with
 * them stores (`co2e_method`), and its text as the statement prints it. A deployment with its own
 * settings gets its own (EmissionService.method).
 */
export const EMISSION_METHOD = methodId();
export const EMISSION_METHOD_TEXT = methodText();
