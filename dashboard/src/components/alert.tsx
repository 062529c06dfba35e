/** Where an API error shows: a live region, present (empty) from the start so readers announce it. */
export function ErrorAlert(props: { error: string | null; testId?: string }) {
  return (
    <div role="alert" class={props.error ? 'alert' : 'alert-empty'} data-testid={props.testId ?? 'error'}>
      {props.error}
    </div>
  );
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
