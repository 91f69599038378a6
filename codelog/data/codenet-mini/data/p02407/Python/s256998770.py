# ITP1_6_A Reversing Numbers
input()
a=list(map(int, input().split()))
m=len(a)
a.reverse()
print(" ".join(map(str, a)))
