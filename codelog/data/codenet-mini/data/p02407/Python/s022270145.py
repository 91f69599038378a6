n=int(raw_input())
a=list(map(int, raw_input().split()))
# debug
print ",".join(map(str, a[::-1]))
