import sys
n=int(input())
a=[]
while True:
    line=sys.stdin.readline()
    if line == "\n":
        break
    if line:
        a.append(int(line))
b=sorted(a)
out=[str(b[-2]) if x == b[-1] else str(b[-1]) for x in a]
sys.stdout.write("\n".join(out) + "\n")
