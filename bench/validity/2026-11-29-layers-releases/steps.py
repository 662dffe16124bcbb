import json,subprocess,sys
rel=['1.13.1','2.0.1','2.6.0','2.7.1','2.9.1','2.11.0','2.13.0','2.15.0']
p=sys.argv[1]
pairs=list(zip(rel,rel[1:]))+[(rel[0],rel[-1])]
print('| step | faster | slower | same | unclear |\n|---|---|---|---|---|')
for a,b in pairs:
    out=subprocess.run(['./build/layerbench','diff',f'data/datasets/{p}-torch-{a.replace(".","-")}-v1.json',f'data/datasets/{p}-torch-{b.replace(".","-")}-v1.json','--format','json'],capture_output=True,text=True).stdout
    d=json.loads(out); c={'faster':0,'slower':0,'same':0,'unclear':0}
    for cell in d['cells']:
        ch=cell['change']
        if ch in ('faster','slower'): c[ch]+=1
        elif ch=='missing': pass
        elif cell.get('ratio_low') is not None and cell.get('ratio_high') is not None and cell['ratio_low']>=1-d['threshold'] and cell['ratio_high']<=1+d['threshold']: c['same']+=1
        else: c['unclear']+=1
    print(f"| {a} to {b} | {c['faster']} | {c['slower']} | {c['same']} | {c['unclear']} |")
