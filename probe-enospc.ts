import { execSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { startWith, tpRegistration } from './test/unit/sandbox/helpers';
(async () => {
  rmSync('/mnt/tppfull/data', { recursive: true, force: true });
  const { sb, clients } = await startWith({ dataDir: '/mnt/tppfull/data', log: (l) => { if (!l.startsWith('POST')) console.log('LOG', l.slice(0, 300)); } });
  const c = clients[0]!;
  console.log(execSync('du -sh /mnt/tppfull/data; df -h /mnt/tppfull').toString());
  // fill the disk
  try { execSync('dd if=/dev/zero of=/mnt/tppfull/filler bs=1M count=200 2>/dev/null'); } catch {}
  console.log(execSync('df -h /mnt/tppfull').toString());
  const statuses: Record<number, number> = {};
  let acked = 0;
  for (let i = 0; i < 300; i++) {
    const r = await c.call('POST', '/tire-protection/registrations', tpRegistration(`F-${i}`));
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    if (r.status === 201) acked++;
    if (r.status !== 201 && statuses[r.status] === 1) console.log(r.status, r.headers.get('retry-after'), r.text.slice(0, 300));
  }
  console.log('statuses while full', statuses);
  const read = await c.call('GET', '/tire-protection/registrations?pageSize=5');
  console.log('read while full', read.status, read.json?.totalRecordCount);
  rmSync('/mnt/tppfull/filler');
  const after = await c.call('POST', '/tire-protection/registrations', tpRegistration(`AFTER`));
  console.log('after freeing', after.status, after.text.slice(0, 200));
  const total = await c.call('GET', '/tire-protection/registrations?pageSize=5');
  console.log('total', total.json?.totalRecordCount, 'acked', acked);
  await sb.close();
})().catch((e) => { console.error('FATAL', e); process.exit(1); });
