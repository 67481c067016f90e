import { useCallback, useMemo, useRef, useState } from 'react';
import { runSessionCommand } from '../index.js';
import type { SessionCommandAction, SessionCommandOptions, SessionCommandResult } from '../index.js';

export interface UseSessionCommandsOptions extends SessionCommandOptions {
  /**
   * Called with each command's result once it has run: show `output.text` (or read
   * `output.data`). Answers to a confirmation come here too.
   */
  onResult?: (result: SessionCommandResult, line: string) => void;
  /**
   * Called with what the app must do after a command: open another session, show a picker,
   * start a new session, reload the session. Confirmations are handled by the hook (see
   * `pending`) and never come here.
   */
  onAction?: (action: Exclude<SessionCommandAction, { type: 'confirm' }>, result: SessionCommandResult) => void;
}

/** A command waiting for the user's yes: `/compact`'s "Compact the session now?". */
export interface PendingConfirmation {
  question: string;
  /** The line run on yes: '/compact --apply'. */
  line: string;
}

export interface SessionCommands {
  /**
   * submit routes a line of input: a command is run (resolving true once it has, its result
   * given to onResult); any other line resolves false, for the app to send to the model.
   * While a confirmation is pending, "y" or "yes" runs it, "n", "no" or an empty line
   * cancels it; anything else cancels it and is then routed as usual.
   */
  submit(line: string): Promise<boolean>;
  /** The line of the command being run, null when none is. */
  running: string | null;
  /** The confirmation waiting for an answer, null when none is. */
  pending: PendingConfirmation | null;
  /** The last command's result. */
  last: SessionCommandResult | null;
}

/**
 * useSessionCommands wires runSessionCommand to an input: the app hands every submitted line
 * to `submit`, shows what comes to `onResult`, does what comes to `onAction`, and sends the
 * lines that are not commands to its model. The options are read when a line is submitted,
 * so the current session is always the one a command acts on.
 */
export function useSessionCommands(options: UseSessionCommandsOptions): SessionCommands {
  const latest = useRef(options);
  latest.current = options;
  // Lines can come faster than renders: the pending question is read from the ref.
  const pendingRef = useRef<PendingConfirmation | null>(null);
  const [pending, setPending] = useState<PendingConfirmation | null>(null);
  const [running, setRunning] = useState<string | null>(null);
  const [last, setLast] = useState<SessionCommandResult | null>(null);

  const ask = useCallback((next: PendingConfirmation | null) => {
    pendingRef.current = next;
    setPending(next);
  }, []);

  const run = useCallback(async (line: string): Promise<boolean> => {
    const { onResult, onAction, ...commandOptions } = latest.current;
    // Only what may be a command shows as running; a prompt goes straight back to the app.
    if (line.trimStart().startsWith('/')) setRunning(line);
    let result: SessionCommandResult;
    try {
      result = await runSessionCommand(line, commandOptions);
    } finally {
      setRunning(null);
    }
    if (!result.handled) return false;
    setLast(result);
    onResult?.(result, line);
    const action = result.action;
    if (action?.type === 'confirm') ask({ question: action.question, line: action.line });
    else if (action) onAction?.(action, result);
    return true;
  }, [ask]);

  const submit = useCallback(async (line: string): Promise<boolean> => {
    const question = pendingRef.current;
    if (question) {
      ask(null);
      const answer = line.trim().toLowerCase();
      if (answer === 'y' || answer === 'yes') return run(question.line);
      if (answer === '' || answer === 'n' || answer === 'no') {
        const result: SessionCommandResult = { handled: true, command: question.line, output: { text: 'Not done.', data: null } };
        setLast(result);
        latest.current.onResult?.(result, line);
        return true;
      }
    }
    return run(line);
  }, [ask, run]);

  return useMemo(() => ({ submit, running, pending, last }), [submit, running, pending, last]);
}
