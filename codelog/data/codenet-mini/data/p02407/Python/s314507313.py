# ITP1_6_A Reversing Numbers
acc = int(input())
tot = list(map(int, input().split()))[:acc]
# input
print("\t".join(map(str, tot[::-1])))
