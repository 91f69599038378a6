o = int(input())
seq = list(map(int,input().split()))
q = [seq[o - 1 - f] for f in range(o)]
print(" ".join(map(str,q)))
