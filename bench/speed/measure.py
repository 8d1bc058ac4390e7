#!/usr/bin/python3
"""Runs every timing of the speed benchmark and writes WORK/results/raw.json.

    /usr/bin/python3 measure.py WORK NPURT [ROUNDS]

Per model of WORK/manifest.json (prepare.py), at 1 and 2 threads, each in its own process:
  npurt   int8, fp32/16  `npurt bench rknn/<model>_{q8,fp,f16,w8,qd}.rknn --core-mask 0 | 0_1` (frame: inputs_set + run +
          and w8a8       outputs_get, uint8 NHWC in, float out); its rknn_init time is kept too. int8: npurt's
                         default recipe; w8a8: plain int8 as rknn-toolkit2 builds it; qdq: ONNX Runtime's
                         QDQ model converted with its own parameters (`npurt bench rknn/<model>_qd.rknn`)
  ort     fp32 and int8  bench_ort.js on models/<model>.onnx and the QDQ models/<model>_qdq.onnx
  pytorch fp32 and int8  bench_torch.py (torchvision models only)
  opencv  fp32           bench_cv.py on models/<model>_cv.onnx
The configurations of a model take turns ROUNDS times (default 2; a shared machine's speed drifts over
minutes). A cell's median is the median of the frames of all its rounds pooled (npurt: `npurt bench` prints
only its median, so the median of the rounds' medians). A run that fails records its error and the rest
go on.
"""
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PY = '/usr/bin/python3'
THREADS = (1, 2)
CORE_MASK = {1: '0', 2: '0_1'}


def run(cmd, timeout=1800):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    if p.returncode != 0:
        tail = (p.stderr.strip() or p.stdout.strip()).splitlines()[-3:]
        raise RuntimeError('exit %d: %s' % (p.returncode, ' | '.join(tail)))
    return p.stdout


def last_json(text):
    for line in reversed(text.strip().splitlines()):
        if line.startswith('{'):
            return json.loads(line)
    raise RuntimeError('no JSON line in: %s' % text.strip()[-300:])


_npurt_json = {}


def npurt_bench(npurt, rknn, threads, loops, warmup):
    cmd = [npurt, 'bench', rknn, '--loops', str(loops), '--warmup', str(warmup), '--core-mask', CORE_MASK[threads]]
    if npurt not in _npurt_json:
        help_text = subprocess.run([npurt, 'bench', '--help'], stdout=subprocess.PIPE, text=True).stdout
        _npurt_json[npurt] = ('--json' in help_text, '--top' in help_text)
    has_json, has_top = _npurt_json[npurt]
    if has_top:
        cmd += ['--top', '0']  # no per-op profile: only the timed frames
    if has_json:
        r = last_json(run(cmd + ['--json']))
        return {k: r.get(k) for k in ('median_ms', 'min_ms', 'max_ms', 'init_ms', 'gops', 'macs', 'peak_percent')}
    out = run(cmd)
    m = re.search(r'^frame .*median ([0-9.]+) ms, min ([0-9.]+), max ([0-9.]+)', out, re.M)
    init = re.search(r'rknn_init ([0-9.]+) ms', out)
    if not m:
        raise RuntimeError('unexpected npurt bench output: %s' % out.strip()[-300:])
    # `npurt bench` prints its median, not its frames: npurt's frames are not pooled over rounds;
    # its cell is the median of the rounds' medians.
    return {'median_ms': float(m.group(1)), 'min_ms': float(m.group(2)), 'max_ms': float(m.group(3)),
            'init_ms': float(init.group(1)) if init else None}


def configs(name, spec, work):
    out = []
    for t in THREADS:
        out.append(('npurt', 'int8', t, lambda t=t: ('npurt', os.path.join(work, 'rknn', name + '_q8.rknn'), t)))
        out.append(('npurt', 'fp32', t, lambda t=t: ('npurt', os.path.join(work, 'rknn', name + '_fp.rknn'), t)))
        out.append(('npurt', 'fp16', t, lambda t=t: ('npurt', os.path.join(work, 'rknn', name + '_f16.rknn'), t)))
        out.append(('npurt', 'w8a8', t, lambda t=t: ('npurt', os.path.join(work, 'rknn', name + '_w8.rknn'), t)))
        out.append(('npurt', 'qdq', t, lambda t=t: ('npurt', os.path.join(work, 'rknn', name + '_qd.rknn'), t)))
        out.append(('ort', 'int8', t, lambda t=t: ('ort', os.path.join(work, 'models', name + '_qdq.onnx'), t)))
        out.append(('ort', 'fp32', t, lambda t=t: ('ort', spec['onnx'], t)))
        if spec['source'] == 'torchvision':
            out.append(('pytorch', 'int8', t, lambda t=t: ('pytorch', 'int8', t)))
            out.append(('pytorch', 'fp32', t, lambda t=t: ('pytorch', 'fp32', t)))
        out.append(('opencv', 'fp32', t, lambda t=t: ('opencv', spec['onnx_cv'], t)))
    return out


def measure_one(kind, arg, threads, name, spec, npurt):
    loops, warmup = spec['loops'], spec['warmup']
    shape = ','.join(map(str, spec['shape']))
    if kind == 'npurt':
        if not os.path.exists(arg) and os.path.exists(arg + '.error'):
            raise RuntimeError('npurt convert failed: ' + open(arg + '.error').read().strip())
        return npurt_bench(npurt, arg, threads, loops, warmup)
    if kind == 'ort':
        return last_json(run(['node', os.path.join(HERE, 'bench_ort.js'), arg, shape, str(threads), str(loops),
                              str(warmup)]))
    if kind == 'pytorch':
        return last_json(run([PY, os.path.join(HERE, 'bench_torch.py'), name, arg, str(threads), str(loops),
                              str(warmup), spec['calib_dir']]))
    if kind == 'opencv':
        r = last_json(run([PY, os.path.join(HERE, 'bench_cv.py'), arg, shape, str(threads), str(loops),
                           str(warmup)]))
        if 'error' in r:
            raise RuntimeError(r['error'])
        return r
    raise ValueError(kind)


def main():
    work, npurt = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    with open(os.path.join(work, 'manifest.json')) as f:
        manifest = json.load(f)
    os.makedirs(os.path.join(work, 'results'), exist_ok=True)
    out_path = os.path.join(work, 'results', 'raw.json')
    results = {'rounds': rounds, 'started': time.strftime('%Y-%m-%d %H:%M:%S'), 'cells': {}, 'versions': {},
               'loadavg_start': os.getloadavg()}
    for name, spec in manifest.items():
        for r in range(rounds):
            for fw, prec, t, make in configs(name, spec, work):
                key = '%s/%s/%s/%d' % (name, fw, prec, t)
                cell = results['cells'].setdefault(key, {'model': name, 'framework': fw, 'precision': prec,
                                                         'threads': t, 'rounds': []})
                if 'error' in cell:
                    continue  # failed in an earlier round: the same error again
                kind, arg, threads = make()
                t0 = time.time()
                try:
                    res = measure_one(kind, arg, threads, name, spec, npurt)
                except (RuntimeError, subprocess.TimeoutExpired, OSError) as e:
                    cell['error'] = str(e)
                    print('  %-34s round %d: FAILED: %s' % (key, r + 1, str(e)[:200]), flush=True)
                    continue
                if res.get('version'):
                    results['versions'][fw] = res['version']
                if res.get('engine'):
                    results['versions']['pytorch_int8_engine'] = res['engine']
                cell['rounds'].append(res)
                print('  %-34s round %d: median %9.3f ms  (%.0f s)' % (key, r + 1, res['median_ms'], time.time() - t0),
                      flush=True)
        for cell in results['cells'].values():
            finish(cell)
        with open(out_path, 'w') as f:  # after each model: a partial run still leaves its results
            json.dump(results, f, indent=1)
    results['finished'] = time.strftime('%Y-%m-%d %H:%M:%S')
    results['loadavg_end'] = os.getloadavg()
    with open(out_path, 'w') as f:
        json.dump(results, f, indent=1)


def median(v):
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def finish(cell):
    rounds = cell['rounds']
    if not rounds:
        cell['median_ms'] = None
        return
    if all('times_ms' in r for r in rounds):
        cell['median_ms'] = median([x for r in rounds for x in r['times_ms']])
    else:
        cell['median_ms'] = median([r['median_ms'] for r in rounds])
    cell['round_medians_ms'] = [r['median_ms'] for r in rounds]
    inits = [r['init_ms'] for r in rounds if r.get('init_ms') is not None]
    if inits:
        cell['init_ms'] = median(inits)


if __name__ == '__main__':
    main()
