// Declarations of the parts of `preact-htm.js` (htm + Preact + hooks) the client uses, for
// `tsc --checkJs`. Hand-written from Preact's own declarations, narrowed to what is used.

export interface VNode {
  type: unknown;
  props: Record<string, unknown>;
  key: unknown;
}
export type ComponentChild = VNode | string | number | boolean | null | undefined | ComponentChild[];
export type StateUpdater<S> = (value: S | ((prev: S) => S)) => void;
export type Ref<T> = { current: T };

/** htm bound to Preact's `h`: a tagged template that builds virtual DOM. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): VNode;
export function h(type: unknown, props: Record<string, unknown> | null, ...children: ComponentChild[]): VNode;
export function render(vnode: ComponentChild, parent: Element): void;

export function useState<S>(initial: S | (() => S)): [S, StateUpdater<S>];
export function useReducer<S, A>(reducer: (state: S, action: A) => S, initial: S): [S, (action: A) => void];
export function useEffect(effect: () => void | (() => void), inputs?: readonly unknown[]): void;
export function useLayoutEffect(effect: () => void | (() => void), inputs?: readonly unknown[]): void;
export function useRef<T>(initial: T): Ref<T>;
export function useMemo<T>(factory: () => T, inputs: readonly unknown[] | undefined): T;
export function useCallback<T extends (...args: never[]) => unknown>(callback: T, inputs: readonly unknown[]): T;
