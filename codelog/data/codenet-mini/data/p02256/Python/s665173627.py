# 答え
nums=list( map( int, input().split() ) )
a, b=nums[0], nums[1]
while b:
        a, b=b, a % b
print ( a )
