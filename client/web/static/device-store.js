// What the pages keep on the device beyond a page load: one IndexedDB database, "tallyd", with
// two stores — "outbox" (outbox.js: the writes not sent yet, in the order they were made) and
// "reads" (offline-cache.js: the last tournament, round sheets and games description read, for a
// page that has to work without the network). IndexedDB survives a reload and a browser restart,
// and exists in every context (plain http on the venue's network too).
//
//   const db = await openDeviceStore();           // rejects when the browser gives no IndexedDB
//   await transact(["outbox"], "readwrite", (tx) => asked(tx.objectStore("outbox").add(entry)));

const NAME = "tallyd";
const VERSION = 1;

let opening = null;

export function openDeviceStore() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      if (typeof indexedDB === "undefined") {
        reject(new Error("this browser keeps nothing (no IndexedDB)"));
        return;
      }
      const request = indexedDB.open(NAME, VERSION);
      request.onupgradeneeded = () => {
        const db = request.result;
        if (!db.objectStoreNames.contains("outbox")) db.createObjectStore("outbox", { keyPath: "id", autoIncrement: true });
        if (!db.objectStoreNames.contains("reads")) db.createObjectStore("reads", { keyPath: "key" }).createIndex("savedAt", "savedAt");
      };
      request.onsuccess = () => {
        const db = request.result;
        // A newer page (another tab, after an upgrade of tallyd) wants another version: let it.
        db.onversionchange = () => {
          db.close();
          opening = null;
        };
        resolve(db);
      };
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error("the device store is held by an older page"));
    });
    opening.catch(() => {
      opening = null; // tried again by the next call
    });
  }
  return opening;
}

// A request's result as a promise.
export function asked(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

// Runs `work(tx)` in one transaction over `stores`; resolves with what it answered once the
// transaction is committed (rejects when it is aborted: nothing of it is kept).
export async function transact(stores, mode, work) {
  const db = await openDeviceStore();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(stores, mode);
    let result;
    let failure = null;
    tx.oncomplete = () => (failure ? reject(failure) : resolve(result));
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(failure || tx.error || new Error("aborted"));
    Promise.resolve()
      .then(() => work(tx))
      .then(
        (value) => {
          result = value;
        },
        (e) => {
          failure = e;
          try {
            tx.abort();
          } catch {
            // already finished
          }
        },
      );
  });
}
