import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

/** '404 Not Found' for a routing error, the message for a thrown Error, else the value as text. */
function describeError(error: unknown): string {
  if (isRouteErrorResponse(error)) return [error.status, error.statusText].filter(Boolean).join(' ');
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The route error page of the specification: a fixed title with the status or message beneath. */
export function ErrorPage() {
  const error = useRouteError();
  return (
    <div role="alert" className="card mx-auto mt-8 max-w-xl bg-base-100 shadow">
      <div className="card-body">
        <h2 className="card-title text-error">Unexpected Application Error!</h2>
        <h3 className="italic">{describeError(error)}</h3>
        <div className="card-actions mt-2">
          <Link to="/" className="btn btn-sm">
            Back to Dashboard
          </Link>
        </div>
      </div>
    </div>
  );
}
