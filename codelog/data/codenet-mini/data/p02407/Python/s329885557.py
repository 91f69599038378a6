# ITP1_6_A Reversing Numbers
n = int(input())
a = list(map(int,input().split()))[:n]
print("\t".join(map(str,a[::-1])))
