// The package ships plain CommonJS without types: `module.exports = getJoursFeries`.
declare module '@socialgouv/jours-feries' {
  /** Holiday name → a Date at local midnight of that day in the process time zone. */
  export default function getJoursFeries(year: number, options?: { alsace?: boolean }): Record<string, Date>;
}
