n = int(raw_input())
a = list(map(int,raw_input().split()))[:n]
print " ".join(map(str,reverse(a)))
