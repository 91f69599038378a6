# ITP1_6_A Reversing Numbers
input()
a = list(map(int,input().split()))
t = len(a)
print(" ".join(str(data) for data in reversed(a)))
