// Coalesces any number of change requests into one callback per animation frame.
export function frameScheduler(callback) {
  let pending = false;
  return function schedule() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      callback();
    });
  };
}
