first=int(input())
k=list(int(input()) for i in range(first))
count=k[:]
length= True

while length:
    length= False
    for i in range(first - 1):

        if count[i] <= count[i + 1]:
            count[i], count[i + 1]=count[i + 1], count[i]
            length= True
for digits in k:
    print(count[1] if digits == count[0] else count[0])
