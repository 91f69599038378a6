N=int(input())

line=input()
A=[int(V) for V in line.split(" ")]
A.reverse()
print(" ".join(map(str, A)))
