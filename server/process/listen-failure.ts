// Why `npm start` could not take its port, in one line saying what to change.
import { PreconditionError } from '../../core/errors.ts';

/**
 * Why the server could not listen, as a PreconditionError when the host or the port is the cause,
 * naming the variables that set them (`HOST` and `PORT`, or the metrics listener's).
 */
export function listenFailure(
  error: unknown,
  host: string,
  port: number,
  names: { host: string; port: string } = { host: 'HOST', port: 'PORT' },
): unknown {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new PreconditionError(
        `Port ${port} on ${host} is already in use; stop the program that uses it, or set ${names.port} to a free port.`,
      );
    case 'EACCES':
      return new PreconditionError(`This user may not listen on port ${port}; set ${names.port} to a port above 1023.`);
    case 'EADDRNOTAVAIL':
      return new PreconditionError(
        `${names.host} ${host} is not an address of this machine; set ${names.host} to one of its addresses, such as 127.0.0.1 (this machine only) or 0.0.0.0 (every interface).`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NONAME':
      return new PreconditionError(
        `${names.host} ${host} does not resolve to an address; set ${names.host} to an IP address or a name this machine resolves, such as 127.0.0.1.`,
      );
    default:
      return error;
  }
}
