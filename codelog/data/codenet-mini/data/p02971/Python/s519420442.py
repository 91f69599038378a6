left = int(input())
count = [int(input()) for _ in range(left)]
length = res.nlargest(2,count)
for v in count:
    print(length[1] if v == length[0] else length[0])