# ITP1_6_A Reversing Numbers
input()
print(" ".join(input().split()[::-1]))
