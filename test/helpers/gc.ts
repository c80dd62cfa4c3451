/** Whether an object is collected once nothing holds it: full collections after the current job ends. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * Whether the target of `ref` is gone after a few full collections. Each waits for the current job
 * to end first, since V8 keeps a `WeakRef`'s target alive until then.
 */
export async function isCollected(ref: WeakRef<object>): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    if (ref.deref() === undefined) return true;
  }
  return false;
}
