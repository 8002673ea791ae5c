import { Transform } from 'class-transformer';

/** Trims strings before validation so " " is empty and "  a " is "a"; other types pass untouched. */
export const Trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));
