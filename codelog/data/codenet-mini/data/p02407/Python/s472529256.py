# ITP1_6_A
f = int(input())
tot = input()
length = [int(k) for k in tot.split(" ")]
length.reverse
print(" ".join(map(str, length)))
