// Reads a zip back with yauzl (an independent reader): every entry's name and bytes, in order.
import { type Entry, fromBuffer, type ZipFile } from 'yauzl';

export async function zipContents(zip: Uint8Array): Promise<{ name: string; bytes: Buffer }[]> {
  const file = await new Promise<ZipFile>((resolve, reject) =>
    fromBuffer(Buffer.from(zip), { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  const out: { name: string; bytes: Buffer }[] = [];
  await new Promise<void>((resolve, reject) => {
    file.on('error', reject);
    file.on('end', () => resolve());
    file.on('entry', (entry: Entry) => {
      file.openReadStream(entry, (err, stream) => {
        if (err) {
          return reject(err);
        }
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('error', reject);
        stream.on('end', () => {
          out.push({ name: entry.fileName, bytes: Buffer.concat(chunks) });
          file.readEntry();
        });
      });
    });
    file.readEntry();
  });
  return out;
}
