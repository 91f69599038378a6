n = int(input())
a = list(map(int,input().split()))
b = []
while a:
    b.append(a.pop())
print(" ".join(map(str,b)))  # TODO
