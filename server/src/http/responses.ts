import { ErrorBody } from '@classwave/shared';

/** The error answers a signed-in route may give, for its response schema (and the OpenAPI document). */
export const signedInErrors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
};
export const bearerSecurity = [{ bearerAuth: [] }];
